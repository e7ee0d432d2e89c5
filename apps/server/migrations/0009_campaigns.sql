CREATE TABLE "campaign_job_recipients" (
	"job_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"contact_id" uuid NOT NULL,
	"data" jsonb,
	"message_id" uuid,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "campaign_jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"campaign_id" uuid,
	"status" text DEFAULT 'running' NOT NULL,
	"template" text DEFAULT '' NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"phone_number_filter" jsonb NOT NULL,
	"template_id" uuid,
	"recipients" integer DEFAULT 0 NOT NULL,
	"submitted" integer DEFAULT 0 NOT NULL,
	"invalid" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"price" numeric(14, 4) DEFAULT '0' NOT NULL,
	"error_description" text,
	"reported_at" timestamp with time zone,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "campaign_jobs_price_not_negative" CHECK ("campaign_jobs"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"messaging_type" text NOT NULL,
	"trigger" text NOT NULL,
	"phone_number_filter" jsonb NOT NULL,
	"schedule" jsonb,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"template_id" uuid,
	"template" text DEFAULT '' NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reporting" jsonb,
	"field_mappings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"executions" integer DEFAULT 0 NOT NULL,
	"last_job_id" uuid,
	"last_execution_at" timestamp with time zone,
	"next_execution_at" timestamp with time zone,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"template" text DEFAULT '' NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"private" boolean DEFAULT false NOT NULL,
	"opt_in_list_id" uuid,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_job_recipients" ADD CONSTRAINT "campaign_job_recipients_job_id_campaign_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."campaign_jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_jobs" ADD CONSTRAINT "campaign_jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_jobs" ADD CONSTRAINT "campaign_jobs_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_jobs" ADD CONSTRAINT "campaign_jobs_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_opt_in_list_id_contact_lists_id_fk" FOREIGN KEY ("opt_in_list_id") REFERENCES "public"."contact_lists"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_job_recipients_pk" ON "campaign_job_recipients" USING btree ("job_id","position");--> statement-breakpoint
CREATE INDEX "campaign_job_recipients_pending_idx" ON "campaign_job_recipients" USING btree ("job_id","position") WHERE "campaign_job_recipients"."message_id" is null and "campaign_job_recipients"."error" is null;--> statement-breakpoint
CREATE INDEX "campaign_jobs_campaign_idx" ON "campaign_jobs" USING btree ("campaign_id","created_at");--> statement-breakpoint
CREATE INDEX "campaign_jobs_running_idx" ON "campaign_jobs" USING btree ("created_at") WHERE "campaign_jobs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "campaigns_account_idx" ON "campaigns" USING btree ("account_id","updated_at");--> statement-breakpoint
CREATE INDEX "campaigns_due_idx" ON "campaigns" USING btree ("next_execution_at") WHERE "campaigns"."active" and "campaigns"."next_execution_at" is not null;--> statement-breakpoint
CREATE INDEX "templates_account_idx" ON "templates" USING btree ("account_id","type","name");