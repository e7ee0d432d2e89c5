CREATE TABLE "account_row_counts" (
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"n" bigint NOT NULL
);
--> statement-breakpoint
DROP INDEX "contacts_account_created_idx";--> statement-breakpoint
DROP INDEX "messages_conversation_idx";--> statement-breakpoint
CREATE INDEX "account_row_counts_idx" ON "account_row_counts" USING btree ("account_id","kind");--> statement-breakpoint
CREATE INDEX "conversations_open_activity_idx" ON "conversations" USING btree ("account_id",coalesce("last_message_at", "created_at"),"id") WHERE "conversations"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "contacts_account_created_idx" ON "contacts" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("conversation_id","created_at","id","account_id");