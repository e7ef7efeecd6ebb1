CREATE TABLE "dedicated_certificates" (
	"network_id" integer NOT NULL,
	"node" text NOT NULL,
	"subject" text NOT NULL,
	"serial" text NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"fingerprint" text NOT NULL,
	"certificate_pem" text NOT NULL,
	"key_sealed" text NOT NULL,
	CONSTRAINT "dedicated_certificates_network_id_node_pk" PRIMARY KEY("network_id","node")
);
--> statement-breakpoint
CREATE TABLE "dedicated_networks" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"chain_id" integer NOT NULL,
	"consensus" text NOT NULL,
	"peers" integer NOT NULL,
	"state" text NOT NULL,
	"auth_user" text NOT NULL,
	"auth_password_hash" text NOT NULL,
	"ca_certificate_pem" text NOT NULL,
	"ca_key_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dedicated_networks_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "dedicated_certificates" ADD CONSTRAINT "dedicated_certificates_network_id_dedicated_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."dedicated_networks"("id") ON DELETE cascade ON UPDATE no action;