CREATE TABLE `mail_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`inbox_id` text NOT NULL,
	`message_id` text NOT NULL,
	`from_address` text,
	`subject` text,
	`received_at` text,
	`rule_id` text,
	`outcome` text NOT NULL,
	`instance_id` text,
	`business_key` text,
	`reason` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mail_deliveries_message` ON `mail_deliveries` (`inbox_id`,`message_id`);--> statement-breakpoint
CREATE INDEX `mail_deliveries_created` ON `mail_deliveries` (`created_at`);--> statement-breakpoint
CREATE TABLE `mail_inboxes` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`host` text NOT NULL,
	`port` integer NOT NULL,
	`tls_mode` text NOT NULL,
	`username` text NOT NULL,
	`password_variable` text NOT NULL,
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
CREATE TABLE `mail_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`definition_key` text NOT NULL,
	`inbox_id` text,
	`priority` integer NOT NULL,
	`enabled` integer NOT NULL,
	`match` text NOT NULL,
	`mapping` text NOT NULL,
	`attachment_document_type_id` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
