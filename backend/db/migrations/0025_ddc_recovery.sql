ALTER TABLE "ddc_transfers" ALTER COLUMN "tx_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ddc_transfers" ALTER COLUMN "block_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ddc_transfers" ADD COLUMN "status" smallint DEFAULT 2 NOT NULL;--> statement-breakpoint
ALTER TABLE "ddc_transfers" ADD COLUMN "fail_reason" text;--> statement-breakpoint
CREATE INDEX "ddc_transfers_sending" ON "ddc_transfers" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "ddcs_status" ON "ddcs" USING btree ("status","created_at");