-- The simulator's loops hold a row by leased_until, which no index holds, so that taking it is an update on its
-- own page (HOT), not a new entry in each of the table's indexes; the pages keep room for it. Existing pages
-- keep theirs as they are; new ones are filled to 70%.
ALTER TABLE "simulator_messages" ADD COLUMN "leased_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "simulator_messages" SET (fillfactor = 70);
