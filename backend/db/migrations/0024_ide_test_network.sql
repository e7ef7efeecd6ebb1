CREATE TABLE "ide_test_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"key_sealed" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ide_test_deployments" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"workspace_id" integer NOT NULL,
	"file" text NOT NULL,
	"name" text NOT NULL,
	"chain_name" text NOT NULL,
	"deployer" text NOT NULL,
	"abi" jsonb NOT NULL,
	"status" smallint NOT NULL,
	"fail_reason" text,
	"address" text,
	"tx_hash" text,
	"block_number" bigint,
	"created_at" timestamp with time zone NOT NULL,
	"deployed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ide_test_accounts" ADD CONSTRAINT "ide_test_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ide_test_deployments" ADD CONSTRAINT "ide_test_deployments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ide_test_deployments" ADD CONSTRAINT "ide_test_deployments_workspace_id_ide_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."ide_workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ide_test_deployments_workspace" ON "ide_test_deployments" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ide_test_deployments_one_under_way" ON "ide_test_deployments" USING btree ("user_id") WHERE "ide_test_deployments"."status" = 1;