-- A posted transaction is closed (docs/decisions/0039): its entries are written with it, in the same database
-- transaction, and none is added later, not even a pair that keeps it balanced. Rows written together carry the
-- same xmin, so an entry whose xmin differs from its transaction's came afterwards.
CREATE OR REPLACE FUNCTION "ledger_check_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  checked uuid;
  entry_count bigint;
  total numeric;
BEGIN
  IF TG_TABLE_NAME = 'ledger_entries' THEN
    checked := NEW.transaction_id;
  ELSE
    checked := NEW.id;
  END IF;
  IF EXISTS (
    SELECT 1 FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.transaction_id = checked AND e.xmin <> t.xmin
  ) THEN
    RAISE EXCEPTION 'ledger transaction % was posted before: no entry can be added to it', checked
      USING ERRCODE = 'check_violation';
  END IF;
  SELECT count(*), coalesce(sum(amount_cents), 0) INTO entry_count, total
    FROM ledger_entries WHERE transaction_id = checked;
  IF entry_count < 2 OR total <> 0 THEN
    RAISE EXCEPTION 'ledger transaction % does not balance: % entries summing to % cents', checked, entry_count, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END;
$$;
