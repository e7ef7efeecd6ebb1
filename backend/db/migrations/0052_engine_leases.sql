CREATE TABLE "engine_leases" (
	"engine" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"address" text NOT NULL,
	"epoch" integer DEFAULT 1 NOT NULL,
	"acquired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"renewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
