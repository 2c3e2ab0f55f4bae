-- Job leases were for pg-boss jobs (a worker's claim on a running job); deliveries are claimed from
-- the webhook_delivery outbox itself (attemptStartedAt), and no code has used this table since.
-- pg-boss's own schema (pgboss, made at run time, not by a migration) stays for now: processes of
-- the previous release still read it during a rolling upgrade (their readiness checks its queue),
-- and one of them restarting would make it again. A migration of a later release drops it.
DROP TABLE IF EXISTS "job_lease";
