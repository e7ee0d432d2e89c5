CREATE TABLE "link_recipients" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"code" text NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"bot_clicks" bigint DEFAULT 0 NOT NULL,
	"first_click_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "link_recipients" ADD CONSTRAINT "link_recipients_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_recipients" ADD CONSTRAINT "link_recipients_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_recipients" ADD CONSTRAINT "link_recipients_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "link_recipients" ADD CONSTRAINT "link_recipients_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "link_recipients_code_idx" ON "link_recipients" USING btree ("code");--> statement-breakpoint
CREATE INDEX "link_recipients_link_idx" ON "link_recipients" USING btree ("link_id","created_at");--> statement-breakpoint
CREATE INDEX "link_recipients_message_idx" ON "link_recipients" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "link_recipients_contact_idx" ON "link_recipients" USING btree ("contact_id");