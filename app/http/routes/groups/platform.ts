import { authRouter } from "../auth";
import { adminUsersRouter } from "../admin-users";
import { adminTenantsRouter } from "../admin-tenants";
import { adminMembersRouter } from "../admin-members";
import { apiKeysRouter } from "../api-keys";
import { webhooksRouter } from "../webhooks";
import { robotsRouter } from "../robots";
import { robotRunnersRouter } from "../robot-runners";
import { adminSsoRouter } from "../admin-sso";
import { authSsoRouter } from "../auth-sso";
import { adminMcpServersRouter } from "../admin-mcp-servers";

/** Sessions, platform administration, API keys and the integration side (webhooks, robots, runners). */
export const platformRouters = () => [
  authRouter(),
  adminUsersRouter(),
  adminTenantsRouter(),
  adminMembersRouter(),
  apiKeysRouter(),
  webhooksRouter(),
  robotsRouter(),
  robotRunnersRouter(),
  adminSsoRouter(),
  authSsoRouter(),
  adminMcpServersRouter(),
];
