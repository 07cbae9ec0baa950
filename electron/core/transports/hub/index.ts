export { createHub, type Hub, type HubOptions } from './server';
export { RS, MessageType, frame } from './protocol';
