import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { UuidV7Schema } from '../schemas/ids.js';
import { LiveAnswerSchema, LiveQuestionSchema } from '../schemas/questions.js';

export const questionsList = defineOperation({
  name: 'questions.list',
  summary: 'Questions running tools are waiting on now (MCP elicitation), oldest first.',
  params: Type.Object({}, { additionalProperties: false }),
  result: Type.Object({ questions: Type.Array(LiveQuestionSchema) }, { additionalProperties: false }),
  http: { method: 'GET', path: '/api/questions' },
});

export const questionsAnswer = defineOperation({
  name: 'questions.answer',
  summary: 'Answer a waiting question: accept with the form, decline, or cancel. The content is checked against the question’s schema.',
  params: Type.Object({ id: UuidV7Schema, answer: LiveAnswerSchema }, { additionalProperties: false }),
  result: Type.Null(),
  http: { method: 'POST', path: '/api/questions/:id/answer', bodyParam: 'answer' },
});
