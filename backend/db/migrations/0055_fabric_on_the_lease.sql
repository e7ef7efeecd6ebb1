CREATE TABLE "fabric_gateway_ca" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"certificate_pem" text NOT NULL,
	"key_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fabric_chaincodes" ADD COLUMN "package_file_id" integer;