PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_mail_inboxes` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`host` text NOT NULL,
	`port` integer NOT NULL,
	`tls_mode` text NOT NULL,
	`username` text NOT NULL,
	`auth_method` text DEFAULT 'PASSWORD' NOT NULL,
	`password_variable` text,
	`oauth_provider` text,
	`oauth_grant` text,
	`oauth_client_id` text,
	`oauth_token_url` text,
	`oauth_scope` text,
	`oauth_client_secret` text,
	`oauth_refresh_token` text,
	`oauth_access_token` text,
	`oauth_access_expires_at` text,
	`folder` text NOT NULL,
	`poll_interval_seconds` integer NOT NULL,
	`after_read` text NOT NULL,
	`move_to_folder` text,
	`enabled` integer NOT NULL,
	`status` text NOT NULL,
	`last_error` text,
	`last_poll_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_mail_inboxes`("id", "name", "host", "port", "tls_mode", "username", "auth_method", "password_variable", "oauth_provider", "oauth_grant", "oauth_client_id", "oauth_token_url", "oauth_scope", "oauth_client_secret", "oauth_refresh_token", "oauth_access_token", "oauth_access_expires_at", "folder", "poll_interval_seconds", "after_read", "move_to_folder", "enabled", "status", "last_error", "last_poll_at", "created_at", "updated_at") SELECT "id", "name", "host", "port", "tls_mode", "username", "auth_method", "password_variable", "oauth_provider", "oauth_grant", "oauth_client_id", "oauth_token_url", "oauth_scope", "oauth_client_secret", "oauth_refresh_token", "oauth_access_token", "oauth_access_expires_at", "folder", "poll_interval_seconds", "after_read", "move_to_folder", "enabled", "status", "last_error", "last_poll_at", "created_at", "updated_at" FROM `mail_inboxes`;--> statement-breakpoint
DROP TABLE `mail_inboxes`;--> statement-breakpoint
ALTER TABLE `__new_mail_inboxes` RENAME TO `mail_inboxes`;--> statement-breakpoint
PRAGMA foreign_keys=ON;