DROP INDEX `process_instances_tenant_state_idx`;--> statement-breakpoint
CREATE INDEX `process_instances_running_idx` ON `process_instances` (`tenant_id`,`start_time`) WHERE state IN ('ACTIVE','SUSPENDED');--> statement-breakpoint
CREATE INDEX `process_instances_ended_idx` ON `process_instances` (`tenant_id`,`end_time`) WHERE state IN ('COMPLETED','CANCELLED');