CREATE TABLE "link_domains" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"renew_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"destination_url" text NOT NULL,
	"domain_id" uuid,
	"code" text NOT NULL,
	"contact_tracking" boolean DEFAULT false NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"bot_clicks" bigint DEFAULT 0 NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "link_domains" ADD CONSTRAINT "link_domains_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_domain_id_link_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."link_domains"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "link_domains_account_domain_idx" ON "link_domains" USING btree ("account_id","domain");--> statement-breakpoint
CREATE INDEX "link_domains_domain_idx" ON "link_domains" USING btree ("domain");--> statement-breakpoint
CREATE UNIQUE INDEX "links_code_idx" ON "links" USING btree ("code");--> statement-breakpoint
CREATE INDEX "links_account_idx" ON "links" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "links_account_name_idx" ON "links" USING btree ("account_id",lower("name"));