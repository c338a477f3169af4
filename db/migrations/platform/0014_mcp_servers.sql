CREATE TABLE `mcp_servers` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`url` text NOT NULL,
	`auth_header_name` text,
	`auth_header_value_sealed` text,
	`allowed_tenants` text NOT NULL,
	`enabled` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_servers_name_uq` ON `mcp_servers` (`name`);--> statement-breakpoint
ALTER TABLE `agents` ADD `mcp_servers` text DEFAULT '[]' NOT NULL;