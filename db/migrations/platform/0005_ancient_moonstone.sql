CREATE TABLE `sso_codes` (
	`code_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sso_connections` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text NOT NULL,
	`client_secret_sealed` text NOT NULL,
	`scopes` text NOT NULL,
	`allowed_domains` text NOT NULL,
	`auto_provision` integer NOT NULL,
	`enabled` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sso_connections_name_uq` ON `sso_connections` (`name`);--> statement-breakpoint
CREATE TABLE `sso_flows` (
	`state` text PRIMARY KEY NOT NULL,
	`connection_id` text NOT NULL,
	`nonce` text NOT NULL,
	`code_verifier` text NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sso_flows_expires` ON `sso_flows` (`expires_at`);