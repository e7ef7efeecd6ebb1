// Unit tests never write a session secret into ./data.
process.env.SESSION_SECRET ??= "unit-test-secret";
