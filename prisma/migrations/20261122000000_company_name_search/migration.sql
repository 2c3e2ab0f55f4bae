-- Company search also matches inside names ("widgets" finds "ACME WIDGETS LIMITED"): a trigram
-- index serves  "nameLower" LIKE '%' || $term || '%'  for terms of three characters or more.
-- Exact and prefix matches keep using company_country_name_lower_prefix_idx.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "company_name_lower_trgm_idx" ON "company" USING gin ("nameLower" gin_trgm_ops);
