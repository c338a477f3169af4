DROP INDEX `process_instances_definition_idx`;--> statement-breakpoint
CREATE INDEX `process_instances_definition_idx` ON `process_instances` (`tenant_id`,`definition_key`,`version`) WHERE state IN ('ACTIVE','SUSPENDED');--> statement-breakpoint
ALTER TABLE `instance_counts` ADD `open_tasks` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `instance_counts` ADD `running_cases` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `instance_counts` ADD `ended_cases` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `case_instances_history_idx` ON `case_instances` (`tenant_id`,`definition_key`,`end_time`) WHERE state <> 'ACTIVE';--> statement-breakpoint
-- Hand-written below (drizzle cannot declare triggers; regenerating this migration must keep this part). The totals of
-- instance_counts are kept by triggers from here on, so whichever code writes an instance, a case or a task (the two
-- runtimes, the history cleanup, the tenant purge) moves them in its own transaction. Increments upsert the tenant's
-- row; decrements only update it, so a row the tenant purge already deleted is not brought back.
INSERT OR IGNORE INTO `instance_counts` (`tenant_id`) SELECT DISTINCT `tenant_id` FROM `tasks` WHERE `state` = 'OPEN';--> statement-breakpoint
INSERT OR IGNORE INTO `instance_counts` (`tenant_id`) SELECT DISTINCT `tenant_id` FROM `case_instances`;--> statement-breakpoint
UPDATE `instance_counts` SET
  `open_tasks` = (SELECT COUNT(*) FROM `tasks` t WHERE t.`tenant_id` = `instance_counts`.`tenant_id` AND t.`state` = 'OPEN'),
  `running_cases` = (SELECT COUNT(*) FROM `case_instances` c WHERE c.`tenant_id` = `instance_counts`.`tenant_id` AND c.`state` = 'ACTIVE'),
  `ended_cases` = (SELECT COUNT(*) FROM `case_instances` c WHERE c.`tenant_id` = `instance_counts`.`tenant_id` AND c.`state` <> 'ACTIVE');--> statement-breakpoint
CREATE TRIGGER `process_instances_count_insert` AFTER INSERT ON `process_instances` BEGIN
  INSERT INTO `instance_counts` (`tenant_id`, `running`, `ended`)
  VALUES (new.`tenant_id`, new.`state` IN ('ACTIVE','SUSPENDED'), new.`state` NOT IN ('ACTIVE','SUSPENDED'))
  ON CONFLICT (`tenant_id`) DO UPDATE SET `running` = `running` + excluded.`running`, `ended` = `ended` + excluded.`ended`;
END;--> statement-breakpoint
CREATE TRIGGER `process_instances_count_update` AFTER UPDATE OF `state` ON `process_instances`
WHEN (old.`state` IN ('ACTIVE','SUSPENDED')) <> (new.`state` IN ('ACTIVE','SUSPENDED')) BEGIN
  UPDATE `instance_counts` SET
    `running` = `running` + CASE WHEN new.`state` IN ('ACTIVE','SUSPENDED') THEN 1 ELSE -1 END,
    `ended` = `ended` + CASE WHEN new.`state` IN ('ACTIVE','SUSPENDED') THEN -1 ELSE 1 END
  WHERE `tenant_id` = new.`tenant_id`;
END;--> statement-breakpoint
CREATE TRIGGER `process_instances_count_delete` AFTER DELETE ON `process_instances` BEGIN
  UPDATE `instance_counts` SET
    `running` = `running` - (old.`state` IN ('ACTIVE','SUSPENDED')),
    `ended` = `ended` - (old.`state` NOT IN ('ACTIVE','SUSPENDED'))
  WHERE `tenant_id` = old.`tenant_id`;
END;--> statement-breakpoint
CREATE TRIGGER `case_instances_count_insert` AFTER INSERT ON `case_instances` BEGIN
  INSERT INTO `instance_counts` (`tenant_id`, `running_cases`, `ended_cases`)
  VALUES (new.`tenant_id`, new.`state` = 'ACTIVE', new.`state` <> 'ACTIVE')
  ON CONFLICT (`tenant_id`) DO UPDATE SET
    `running_cases` = `running_cases` + excluded.`running_cases`, `ended_cases` = `ended_cases` + excluded.`ended_cases`;
END;--> statement-breakpoint
CREATE TRIGGER `case_instances_count_update` AFTER UPDATE OF `state` ON `case_instances`
WHEN (old.`state` = 'ACTIVE') <> (new.`state` = 'ACTIVE') BEGIN
  UPDATE `instance_counts` SET
    `running_cases` = `running_cases` + CASE WHEN new.`state` = 'ACTIVE' THEN 1 ELSE -1 END,
    `ended_cases` = `ended_cases` + CASE WHEN new.`state` = 'ACTIVE' THEN -1 ELSE 1 END
  WHERE `tenant_id` = new.`tenant_id`;
END;--> statement-breakpoint
CREATE TRIGGER `case_instances_count_delete` AFTER DELETE ON `case_instances` BEGIN
  UPDATE `instance_counts` SET
    `running_cases` = `running_cases` - (old.`state` = 'ACTIVE'),
    `ended_cases` = `ended_cases` - (old.`state` <> 'ACTIVE')
  WHERE `tenant_id` = old.`tenant_id`;
END;--> statement-breakpoint
CREATE TRIGGER `tasks_count_insert` AFTER INSERT ON `tasks` WHEN new.`state` = 'OPEN' BEGIN
  INSERT INTO `instance_counts` (`tenant_id`, `open_tasks`) VALUES (new.`tenant_id`, 1)
  ON CONFLICT (`tenant_id`) DO UPDATE SET `open_tasks` = `open_tasks` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `tasks_count_update` AFTER UPDATE OF `state` ON `tasks`
WHEN (old.`state` = 'OPEN') <> (new.`state` = 'OPEN') BEGIN
  UPDATE `instance_counts` SET `open_tasks` = `open_tasks` + CASE WHEN new.`state` = 'OPEN' THEN 1 ELSE -1 END
  WHERE `tenant_id` = new.`tenant_id`;
END;--> statement-breakpoint
CREATE TRIGGER `tasks_count_delete` AFTER DELETE ON `tasks` WHEN old.`state` = 'OPEN' BEGIN
  UPDATE `instance_counts` SET `open_tasks` = `open_tasks` - 1 WHERE `tenant_id` = old.`tenant_id`;
END;
