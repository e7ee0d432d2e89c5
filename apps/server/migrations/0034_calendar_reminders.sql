CREATE TABLE "calendar_reminder_schedules" (
	"integration_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"pattern" text NOT NULL,
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_run_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_reminders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"calendar_id" text NOT NULL,
	"event_id" text NOT NULL,
	"attendee" text NOT NULL,
	"attendee_email" text,
	"contact_id" uuid,
	"event_title" text NOT NULL,
	"event_start" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"message_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancel_requested_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_error" text
);
--> statement-breakpoint
ALTER TABLE "calendar_reminder_schedules" ADD CONSTRAINT "calendar_reminder_schedules_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_reminder_schedules" ADD CONSTRAINT "calendar_reminder_schedules_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_reminders" ADD CONSTRAINT "calendar_reminders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_reminders" ADD CONSTRAINT "calendar_reminders_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_reminders" ADD CONSTRAINT "calendar_reminders_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_reminders_event_attendee_idx" ON "calendar_reminders" USING btree ("account_id","calendar_id","event_id","attendee");--> statement-breakpoint
CREATE INDEX "calendar_reminders_contact_idx" ON "calendar_reminders" USING btree ("account_id","contact_id","created_at");