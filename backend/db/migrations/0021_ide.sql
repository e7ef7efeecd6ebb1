CREATE TABLE "ide_compiled" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"file" text NOT NULL,
	"name" text NOT NULL,
	"abi" jsonb NOT NULL,
	"bytecode" text NOT NULL,
	"compiled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ide_deployments" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"contract_id" integer NOT NULL,
	"file" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ide_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"path" text NOT NULL,
	"folder" boolean DEFAULT false NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ide_grants" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ide_workspaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"template_id" text NOT NULL,
	"compiled_at" timestamp with time zone,
	"compiler" text,
	"diagnostics" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ide_compiled" ADD CONSTRAINT "ide_compiled_workspace_id_ide_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."ide_workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ide_deployments" ADD CONSTRAINT "ide_deployments_workspace_id_ide_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."ide_workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ide_deployments" ADD CONSTRAINT "ide_deployments_contract_id_pub_chain_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."pub_chain_contracts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ide_files" ADD CONSTRAINT "ide_files_workspace_id_ide_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."ide_workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ide_grants" ADD CONSTRAINT "ide_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ide_workspaces" ADD CONSTRAINT "ide_workspaces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ide_compiled_workspace_contract" ON "ide_compiled" USING btree ("workspace_id","file","name");--> statement-breakpoint
CREATE UNIQUE INDEX "ide_deployments_contract" ON "ide_deployments" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "ide_deployments_workspace" ON "ide_deployments" USING btree ("workspace_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ide_files_workspace_path" ON "ide_files" USING btree ("workspace_id","path");--> statement-breakpoint
CREATE INDEX "ide_grants_user" ON "ide_grants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "ide_workspaces_user" ON "ide_workspaces" USING btree ("user_id","id");