CREATE OR REPLACE TRIGGER audit_events_chain_lock BEFORE INSERT ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_lock();
