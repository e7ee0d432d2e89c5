CREATE TABLE "number_lookups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"result" jsonb NOT NULL,
	"looked_up_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "number_lookups_number_kind_idx" ON "number_lookups" USING btree ("number","kind");