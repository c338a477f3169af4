CREATE TABLE `agent_attachments` (
	`tenant_id` text NOT NULL,
	`process_key` text NOT NULL,
	`activity_id` text NOT NULL,
	`agent_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `process_key`, `activity_id`)
);
--> statement-breakpoint
CREATE INDEX `agent_attachments_agent_idx` ON `agent_attachments` (`agent_id`);--> statement-breakpoint
CREATE TABLE `agents` (
	`id` text PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`name` text NOT NULL,
	`process_key` text,
	`model_id` text NOT NULL,
	`instructions` text NOT NULL,
	`tools` text NOT NULL,
	`knowledge_base_ids` text NOT NULL,
	`cms_clearance` text NOT NULL,
	`output_variables` text NOT NULL,
	`max_tool_steps` integer NOT NULL,
	`timeout_ms` integer NOT NULL,
	`created_by` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_scope_key_idx` ON `agents` (`scope`,`key`);