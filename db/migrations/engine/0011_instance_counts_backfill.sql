-- Custom data migration: instance_counts starts from the instances already stored; from here on the runtime's persister
-- keeps it in the transaction that starts or ends an instance.
INSERT INTO `instance_counts` (`tenant_id`, `running`, `ended`)
SELECT `tenant_id`, SUM(`state` IN ('ACTIVE','SUSPENDED')), SUM(`state` IN ('COMPLETED','CANCELLED')) FROM `process_instances` GROUP BY `tenant_id`;
