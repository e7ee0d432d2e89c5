CREATE TABLE "idempotency_keys" (
	"account_id" uuid NOT NULL,
	"caller_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" smallint,
	"response_body" text,
	"response_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_caller_id_key_pk" PRIMARY KEY("account_id","caller_id","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");