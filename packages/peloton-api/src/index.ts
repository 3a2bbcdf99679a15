export type { PelotonApiDeps } from "./calls/deps.ts";
export { processDeps } from "./calls/process.ts";
export { type GrpcServer, type GrpcServerOptions, startGrpcServer } from "./grpc/server.ts";
export { pelotonRegistry, SERVICES } from "./services.ts";
export { handleYarpcRequest, type YarpcOptions } from "./yarpc/http.ts";
