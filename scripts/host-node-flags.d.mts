export const HOST_NODE_FLAGS: string[];
