CREATE INDEX "pub_chain_contracts_address" ON "pub_chain_contracts" USING btree ("address");--> statement-breakpoint
CREATE INDEX "pub_chain_contracts_tx" ON "pub_chain_contracts" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "pub_chain_gas_tx" ON "pub_chain_gas" USING btree ("tx_hash");