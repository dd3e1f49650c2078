// The Node.js flags the browser host runs with, wherever it is started (`npm start`, `npm run serve`, `npm run dev`,
// the tests' and the bench's spawned hosts; `npm run mcp` is a stdio server, not the host).
//
// V8 lets the young generation grow to three 16 MB spaces by default: the host's memory peaked at 320–350 MB
// importing GitHub's whole description (1,221 tools), 150 MB of it before anything was asked. With 4 MB spaces the
// same import peaked at 260–276 MB and the idle host holds ~15 MB less; the invoke and imports benches showed no
// change beyond their run-to-run noise. The desktop app's core runs in Electron's main process, whose V8 flags can
// only be given on Electron's own command line (`--js-flags`), so it keeps V8's sizes.
export const HOST_NODE_FLAGS = ['--max-semi-space-size=4'];
