CREATE TABLE "doc_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"parent_id" integer,
	"position" integer DEFAULT 0 NOT NULL,
	"title_en" text DEFAULT '' NOT NULL,
	"title_zh" text DEFAULT '' NOT NULL,
	"body_en" text DEFAULT '' NOT NULL,
	"body_zh" text DEFAULT '' NOT NULL,
	"published" boolean DEFAULT true NOT NULL,
	"shipped_key" text,
	"operator_edited" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "doc_shipped" (
	"key" text PRIMARY KEY NOT NULL,
	"written_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"version" text NOT NULL,
	"description_en" text NOT NULL,
	"description_zh" text NOT NULL,
	"main_path" text NOT NULL,
	"init_params" text DEFAULT '' NOT NULL,
	"functions" jsonb NOT NULL,
	"file_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'published' NOT NULL,
	"shipped_key" text,
	"operator_edited" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "doc_pages" ADD CONSTRAINT "doc_pages_parent_id_doc_pages_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."doc_pages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_packages" ADD CONSTRAINT "market_packages_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "doc_pages_slug" ON "doc_pages" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "doc_pages_shipped_key" ON "doc_pages" USING btree ("shipped_key") WHERE "doc_pages"."shipped_key" is not null;--> statement-breakpoint
CREATE INDEX "doc_pages_parent" ON "doc_pages" USING btree ("parent_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "market_packages_name" ON "market_packages" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "market_packages_shipped_key" ON "market_packages" USING btree ("shipped_key") WHERE "market_packages"."shipped_key" is not null;