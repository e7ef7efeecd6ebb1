CREATE TABLE "search_terms" (
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"lang" text NOT NULL,
	"term" text NOT NULL,
	"weight" smallint NOT NULL,
	CONSTRAINT "search_terms_kind_item_id_lang_term_pk" PRIMARY KEY("kind","item_id","lang","term")
);
--> statement-breakpoint
CREATE INDEX "search_terms_term_idx" ON "search_terms" USING btree ("kind","term");