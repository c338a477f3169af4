import { authRouter } from "../auth";
import { adminUsersRouter } from "../admin-users";
import { adminTenantsRouter } from "../admin-tenants";
import { adminMembersRouter } from "../admin-members";
import { apiKeysRouter } from "../api-keys";
import { webhooksRouter } from "../webhooks";
import { adminSsoRouter } from "../admin-sso";
import { authSsoRouter } from "../auth-sso";

/** Sessions, platform administration and API keys. */
export const platformRouters = () => [
  authRouter(),
  adminUsersRouter(),
  adminTenantsRouter(),
  adminMembersRouter(),
  apiKeysRouter(),
  webhooksRouter(),
  adminSsoRouter(),
  authSsoRouter(),
];
