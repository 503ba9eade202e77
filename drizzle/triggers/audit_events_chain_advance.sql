CREATE OR REPLACE TRIGGER audit_events_chain_advance AFTER INSERT ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_chain_advance();
