CREATE TABLE "app_cas" (
	"app_id" integer PRIMARY KEY NOT NULL,
	"certificate_pem" text NOT NULL,
	"encrypted_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_join_nodes" (
	"join_id" integer NOT NULL,
	"city_node_id" integer NOT NULL,
	"gateway_url" text,
	CONSTRAINT "app_join_nodes_join_id_city_node_id_pk" PRIMARY KEY("join_id","city_node_id")
);
--> statement-breakpoint
CREATE TABLE "app_join_transitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"join_id" integer NOT NULL,
	"event" text NOT NULL,
	"from_state" smallint NOT NULL,
	"to_state" smallint NOT NULL,
	"actor_id" integer,
	"actor_kind" text NOT NULL,
	"comments" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_joins" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"ver_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	"audit_state" smallint DEFAULT 0 NOT NULL,
	"certificate_mode" smallint NOT NULL,
	"order_bill_id" integer,
	"user_code" text,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_ratings" (
	"app_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"score" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_ratings_app_id_user_id_pk" PRIMARY KEY("app_id","user_id"),
	CONSTRAINT "app_ratings_score" CHECK ("app_ratings"."score" BETWEEN 1 AND 5)
);
--> statement-breakpoint
CREATE TABLE "certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"join_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"mode" smallint NOT NULL,
	"serial_number" text NOT NULL,
	"subject" text NOT NULL,
	"certificate_pem" text NOT NULL,
	"encrypted_key_pem" text,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certificates_serial_number_unique" UNIQUE("serial_number")
);
--> statement-breakpoint
CREATE TABLE "comment_useful" (
	"comment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_useful_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "follows" (
	"user_id" integer NOT NULL,
	"target_kind" text NOT NULL,
	"target_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follows_user_id_target_kind_target_id_pk" PRIMARY KEY("user_id","target_kind","target_id")
);
--> statement-breakpoint
CREATE TABLE "product_services" (
	"product_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_services_product_id_app_id_pk" PRIMARY KEY("product_id","app_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"product_type" smallint NOT NULL,
	"cover_file_id" integer,
	"brief" text NOT NULL,
	"description" text NOT NULL,
	"suggested_price_cents" bigint NOT NULL,
	"pay_mode" smallint NOT NULL,
	"company" boolean DEFAULT false NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"listed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"review_comments" text
);
--> statement-breakpoint
ALTER TABLE "app_cas" ADD CONSTRAINT "app_cas_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_join_nodes" ADD CONSTRAINT "app_join_nodes_join_id_app_joins_id_fk" FOREIGN KEY ("join_id") REFERENCES "public"."app_joins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_join_nodes" ADD CONSTRAINT "app_join_nodes_city_node_id_city_nodes_id_fk" FOREIGN KEY ("city_node_id") REFERENCES "public"."city_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_join_transitions" ADD CONSTRAINT "app_join_transitions_join_id_app_joins_id_fk" FOREIGN KEY ("join_id") REFERENCES "public"."app_joins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_join_transitions" ADD CONSTRAINT "app_join_transitions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_joins" ADD CONSTRAINT "app_joins_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_joins" ADD CONSTRAINT "app_joins_ver_id_app_versions_id_fk" FOREIGN KEY ("ver_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_joins" ADD CONSTRAINT "app_joins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_joins" ADD CONSTRAINT "app_joins_role_id_app_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."app_roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_joins" ADD CONSTRAINT "app_joins_order_bill_id_bills_id_fk" FOREIGN KEY ("order_bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_ratings" ADD CONSTRAINT "app_ratings_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_ratings" ADD CONSTRAINT "app_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_join_id_app_joins_id_fk" FOREIGN KEY ("join_id") REFERENCES "public"."app_joins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_useful" ADD CONSTRAINT "comment_useful_comment_id_app_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."app_comments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_useful" ADD CONSTRAINT "comment_useful_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_services" ADD CONSTRAINT "product_services_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_services" ADD CONSTRAINT "product_services_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_services" ADD CONSTRAINT "product_services_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_cover_file_id_files_id_fk" FOREIGN KEY ("cover_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_join_transitions_join" ON "app_join_transitions" USING btree ("join_id","created_at");--> statement-breakpoint
CREATE INDEX "app_joins_app" ON "app_joins" USING btree ("app_id","audit_state");--> statement-breakpoint
CREATE INDEX "app_joins_user" ON "app_joins" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "certificates_user" ON "certificates" USING btree ("user_id","not_after");--> statement-breakpoint
CREATE INDEX "certificates_join" ON "certificates" USING btree ("join_id");--> statement-breakpoint
CREATE INDEX "follows_target" ON "follows" USING btree ("target_kind","target_id");--> statement-breakpoint
CREATE INDEX "product_services_user" ON "product_services" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "products_status" ON "products" USING btree ("status","listed_at");--> statement-breakpoint
CREATE INDEX "products_user" ON "products" USING btree ("user_id");