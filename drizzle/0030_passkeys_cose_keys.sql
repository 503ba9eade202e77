-- Passkeys now keep the credential's COSE public key (what @simplewebauthn/server verifies with);
-- those saved before kept an SPKI key and would never verify, while still blocking their
-- authenticator from being added again. No release has any: they go, and are added again.
DELETE FROM "customer_passkeys";
