-- The shop's own tables (ShopSchema applies this after dedupq's migration). Idempotent.
CREATE TABLE IF NOT EXISTS stock (
    item        text    PRIMARY KEY,
    available   integer NOT NULL,
    price_cents integer NOT NULL
);
INSERT INTO stock (item, available, price_cents) VALUES ('book', 1000000000, 1250), ('rare-stamp', 0, 99000)
    ON CONFLICT (item) DO NOTHING;

CREATE TABLE IF NOT EXISTS orders (
    id       text    PRIMARY KEY,
    item     text    NOT NULL REFERENCES stock (item),
    quantity integer NOT NULL
);

-- No unique key on order_id on purpose: FencedWrites is what keeps a charge to one row per task,
-- and a second row would show that it did not.
CREATE TABLE IF NOT EXISTS charges (
    id             bigserial PRIMARY KEY,
    order_id       text    NOT NULL,
    amount_cents   integer NOT NULL,
    fencing_token  bigint  NOT NULL
);
CREATE INDEX IF NOT EXISTS charges_order ON charges (order_id);
