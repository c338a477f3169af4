import { createRouter } from "../../router";
import { registerSessionRoutes } from "./session";
import { registerMeRoutes } from "./me";
import { registerPasswordRoutes } from "./password";

/** /auth: login, tokens, session, password reset. */
export function authRouter() {
  const r = createRouter();
  registerSessionRoutes(r);
  registerMeRoutes(r);
  registerPasswordRoutes(r);
  return r;
}
