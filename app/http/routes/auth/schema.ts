import { z } from "@hono/zod-openapi";

export const TenantSummarySchema = z
  .object({ id: z.string(), slug: z.string(), name: z.string() })
  .openapi("TenantSummary");

export const LoginResponseSchema = z
  .object({
    accessToken: z.string(),
    refreshToken: z.string(),
    user: z.object({ id: z.string(), email: z.string(), firstName: z.string() }),
    roles: z.array(z.string()),
    tenants: z.array(TenantSummarySchema),
  })
  .openapi("LoginResponse");

export const LoginBody = z.object({ email: z.string().min(1), password: z.string().min(1) }).openapi("LoginRequest");
export const RefreshBody = z.object({ refreshToken: z.string().min(1) }).openapi("RefreshRequest");
export const SelectTenantBody = z.object({ tenantSlug: z.string().min(1) }).openapi("SelectTenantRequest");
export const ForgotBody = z.object({ email: z.string().min(1) }).openapi("PasswordForgotRequest");
export const ResetBody = z
  .object({ token: z.string().min(1), newPassword: z.string().min(1) })
  .openapi("PasswordResetRequest");

export const MeSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string().nullable(),
    roles: z.array(z.string()),
    tenant: TenantSummarySchema.nullable(),
    tenantRoles: z.array(z.string()),
  })
  .openapi("Me");

export const MyTenantSchema = TenantSummarySchema.extend({ role: z.string().nullable() }).openapi("MyTenant");

export const SessionSchema = z
  .object({
    sid: z.string(),
    userId: z.string(),
    tenantId: z.string().nullable(),
    tenantSlug: z.string().nullable(),
    roles: z.array(z.string()),
    createdAt: z.string(),
    lastUsedAt: z.string(),
    refreshExpiresAt: z.string(),
    accessTokenExpiresAt: z.string().nullable(),
  })
  .openapi("Session");

export const MessageSchema = z.object({ message: z.string() }).openapi("Message");
