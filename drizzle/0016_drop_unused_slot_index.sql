-- Slot places are a counter row since 0014 (decision record 035): nothing counts the orders of a slot
-- any more, so this index only cost every order insert.
DROP INDEX "orders_delivery_slot_idx";