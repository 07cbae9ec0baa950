export { startHttpServer, type HttpServerOptions, type RunningHttpServer } from './server';
export { checkHostAndOrigin, contentSecurityPolicy, TOKEN_COOKIE } from './guard';
