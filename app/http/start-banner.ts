/**
 * The few plain lines a person starting the service reads (the JSON log lines are for machines): where it answers,
 * and, on the first start, how to sign in. A generated password appears here once and never again.
 */
export function startBanner(
  url: string,
  dataDir: string,
  admin: { email: string; password?: string } | undefined,
): string {
  const lines = [
    "",
    `  Process Management Service is running at ${url}`,
    `    console   ${url}/`,
    `    API docs  ${url}/swagger-ui`,
    `    data      ${dataDir}`,
  ];
  if (admin?.password) {
    lines.push(
      "",
      "  First start: a SUPER_ADMIN was created. Sign in with",
      `    e-mail    ${admin.email}`,
      `    password  ${admin.password}`,
      "  It is shown only this once: keep it, or change it with PUT /api/admin/users/{id}/password.",
      "  To choose them instead, set BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD before a first start.",
    );
  } else if (admin) {
    lines.push("", `  First start: the SUPER_ADMIN ${admin.email} was created with BOOTSTRAP_ADMIN_PASSWORD.`);
  }
  return `${lines.join("\n")}\n\n`;
}
