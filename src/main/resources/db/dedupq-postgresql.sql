-- dedupq's tables in the application's PostgreSQL database (docs/sql-effects.md). Run once, with
-- the application's own migrations (Flyway, Liquibase, psql -f). Idempotent.

-- One row per task whose effect a handler wrote through FencedWrites: the newest fencing token
-- that claimed it, and the outcome once the handler's transaction committed (NULL until then).
CREATE TABLE IF NOT EXISTS dedupq_effect (
    queue         text        NOT NULL,
    task_id       text        NOT NULL,
    fencing_token bigint      NOT NULL,
    outcome       text,
    recorded_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (queue, task_id)
);

-- Tasks enqueued in an application transaction (TransactionalTaskQueue), until the relay moved
-- them to Redis. The id is fixed when the row is written, so a relay that pushes a row twice
-- enqueues the task once. priority, task_group and timeout_ms are the submission's own (NULL:
-- the default level, the handler's group, the queue's timeout).
CREATE TABLE IF NOT EXISTS dedupq_outbox (
    seq        bigserial   PRIMARY KEY,
    task_id    text        NOT NULL,
    type       text        NOT NULL,
    payload    text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    priority   smallint,
    task_group text,
    timeout_ms bigint
);
-- a table made by dedupq 0.1 before tasks had a priority, a group or a timeout of their own
ALTER TABLE dedupq_outbox ADD COLUMN IF NOT EXISTS priority smallint,
    ADD COLUMN IF NOT EXISTS task_group text,
    ADD COLUMN IF NOT EXISTS timeout_ms bigint;
