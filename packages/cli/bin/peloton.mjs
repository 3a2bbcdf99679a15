#!/usr/bin/env node
// The CLI is TypeScript run through tsx (resolved from this package, not the
// caller's directory), so there is no build step between a change and its use.
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
