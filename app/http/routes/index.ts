import { authRouter } from "./auth";
import { adminUsersRouter } from "./admin-users";
import { adminTenantsRouter } from "./admin-tenants";
import { adminMembersRouter } from "./admin-members";
import { apiKeysRouter } from "./api-keys";

/** Every resource router, mounted under /api. Add a new resource's router here. */
export function allRouters() {
  return [authRouter(), adminUsersRouter(), adminTenantsRouter(), adminMembersRouter(), apiKeysRouter()];
}
