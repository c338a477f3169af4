ALTER TABLE `sso_connections` ADD `trust_email_claim` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `sso_flows` ADD `browser_hash` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `agents` ADD `clearance_capped_from` text;--> statement-breakpoint
-- An agent never holds more CMS clearance than whoever configured it (issue 29): cap existing agents to their
-- creator's level (SUPER_ADMIN or tenant ADMIN: TOP_SECRET, MANAGER: SECRET, anyone else or an unknown creator:
-- PUBLIC; global agents are SUPER_ADMIN's), remembering the old level so the start-up reports each one once.
UPDATE `agents` SET `clearance_capped_from` = `cms_clearance`, `cms_clearance` = (
  CASE (
    SELECT CASE
      WHEN u.`global_role` = 'SUPER_ADMIN' THEN 2
      WHEN m.`role` = 'ADMIN' THEN 2
      WHEN m.`role` = 'MANAGER' THEN 1
      ELSE 0 END
    FROM `users` u LEFT JOIN `memberships` m ON m.`user_id` = u.`id` AND m.`tenant_id` = `agents`.`scope`
    WHERE u.`id` = `agents`.`created_by`
  ) WHEN 2 THEN 'TOP_SECRET' WHEN 1 THEN 'SECRET' ELSE 'PUBLIC' END
)
WHERE `cms_clearance` <> 'PUBLIC' AND (
  CASE `cms_clearance` WHEN 'TOP_SECRET' THEN 2 WHEN 'SECRET' THEN 1 ELSE 0 END
) > COALESCE((
  SELECT CASE
    WHEN u.`global_role` = 'SUPER_ADMIN' THEN 2
    WHEN m.`role` = 'ADMIN' THEN 2
    WHEN m.`role` = 'MANAGER' THEN 1
    ELSE 0 END
  FROM `users` u LEFT JOIN `memberships` m ON m.`user_id` = u.`id` AND m.`tenant_id` = `agents`.`scope`
  WHERE u.`id` = `agents`.`created_by`
), 0);
