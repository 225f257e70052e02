DROP INDEX "chat_rooms_participant1_idx";--> statement-breakpoint
DROP INDEX "chat_rooms_participant2_idx";--> statement-breakpoint
CREATE INDEX "chat_rooms_participant1_idx" ON "chat_rooms" USING btree ("participant1_id","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "chat_rooms_participant2_idx" ON "chat_rooms" USING btree ("participant2_id","last_message_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);