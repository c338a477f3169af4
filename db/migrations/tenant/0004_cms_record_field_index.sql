DROP INDEX `cms_record_values_record_idx`;--> statement-breakpoint
CREATE INDEX `cms_record_values_record_field_idx` ON `cms_record_values` (`record_seq`,`field`,`v`);