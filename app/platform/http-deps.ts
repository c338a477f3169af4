import type { HttpDeps } from "../http/env";
import type { Platform } from "./platform";
import { accessLogOf } from "./observability/logger";

/** The parts of the platform the HTTP layer is built from (serve.ts, the test harness, the benchmarks). */
export function httpDepsOf(platform: Platform): HttpDeps {
  return {
    ports: platform.ports,
    withTenantCtx: platform.withTenantCtx,
    clock: platform.clock,
    trustProxy: platform.config.trustProxy,
    observability: {
      logger: platform.logger,
      accessLog: accessLogOf(platform.logger),
      recordRequest: platform.metrics.recordRequest,
      metricsText: platform.metrics.text,
      metricsContentType: platform.metrics.contentType,
      metricsToken: platform.config.metricsToken,
      readiness: platform.readiness,
    },
  };
}
