-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Environment" AS ENUM ('demo', 'production');

-- CreateEnum
CREATE TYPE "PlatformRole" AS ENUM ('MEMBER', 'ADMIN', 'STAFF');

-- CreateEnum
CREATE TYPE "TokenKind" AS ENUM ('PLATFORM', 'MASTER', 'TENANT', 'MARKETPLACE_V1');

-- CreateEnum
CREATE TYPE "CompanyType" AS ENUM ('SOLE_TRADER', 'LIMITED_LIABILITY_PARTNERSHIP', 'LIMITED_COMPANY', 'STARTUP');

-- CreateEnum
CREATE TYPE "Sector" AS ENUM ('AGRICULTURE', 'AUTOMOTIVE', 'BUSINESS_SERVICES', 'CHARITIES', 'CONSTRUCTION', 'COURIER', 'DISTRIBUTION', 'EDUCATION', 'FINANCIAL_SERVICES', 'HAULAGE', 'HEALTHCARE_CARE', 'HOTELS_HOUSE', 'IMPORT_EXPORT', 'IT_RELATED', 'MANUFACTURING', 'MEDIA_AND_ENTERTAINMENT', 'NONE', 'OTHER', 'PRINT_PUBLISHING', 'PROFESSIONAL_SERVICES', 'PROPERTY', 'RECRUITMENT', 'RETAIL', 'SECURITY_SERVICES', 'TRADE', 'TRANSPORTATION', 'WHOLESALE');

-- CreateEnum
CREATE TYPE "VatStatus" AS ENUM ('REGISTERED', 'NOT_REGISTERED', 'UNKNOWN');

-- CreateEnum
CREATE TYPE "CompanyStatus" AS ENUM ('ACTIVE', 'DISSOLVED');

-- CreateEnum
CREATE TYPE "ProductType" AS ENUM ('ASSET_BACKED_FINANCE', 'COMMERCIAL_PROPERTY', 'E_COMMERCE_FUNDING', 'FIXED_LOAN_TERMS', 'INVOICE_FINANCE', 'MERCHANT_CASH_ADVANCE', 'TERM_LOAN', 'TRADE_FINANCE');

-- CreateEnum
CREATE TYPE "PriceBand" AS ENUM ('LOW', 'AVERAGE', 'EXPENSIVE', 'MOST_EXPENSIVE');

-- CreateEnum
CREATE TYPE "ReviewState" AS ENUM ('PENDING_REVIEW', 'IN_REVIEW', 'SUBMITTED', 'CLOSED');

-- CreateEnum
CREATE TYPE "OfferStatus" AS ENUM ('INDICATIVE', 'FINAL', 'PRE_SELECTED');

-- CreateEnum
CREATE TYPE "OfferType" AS ENUM ('INSTANT_OFFER', 'MANUAL_OFFER');

-- CreateEnum
CREATE TYPE "OfferDecision" AS ENUM ('ACCEPTED', 'DECLINED');

-- CreateEnum
CREATE TYPE "WebhookEvent" AS ENUM ('APPLICATION_CREATED', 'APPLICATION_UPDATED');

-- CreateEnum
CREATE TYPE "DeliveryStatus" AS ENUM ('PENDING', 'DELIVERED', 'FAILED', 'DEAD');

-- CreateTable
CREATE TABLE "account" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "environment" "Environment" NOT NULL DEFAULT 'demo',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "platform_user" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "name" TEXT,
    "role" "PlatformRole" NOT NULL DEFAULT 'MEMBER',
    "environment" "Environment" NOT NULL DEFAULT 'demo',
    "disabledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "platform_user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "keyPrefix" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "scopes" TEXT[],
    "isMaster" BOOLEAN NOT NULL DEFAULT false,
    "environment" "Environment" NOT NULL DEFAULT 'demo',
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "api_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refresh_token" (
    "id" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "familyId" UUID NOT NULL,
    "kind" "TokenKind" NOT NULL,
    "apiKeyId" UUID,
    "tenantId" UUID,
    "userId" UUID,
    "environment" "Environment" NOT NULL DEFAULT 'demo',
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refresh_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tenant" (
    "id" UUID NOT NULL,
    "accountId" UUID,
    "referenceId" TEXT,
    "environment" "Environment" NOT NULL DEFAULT 'demo',
    "createdDateTime" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedDateTime" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "tenant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "company" (
    "id" UUID NOT NULL,
    "countryCode" TEXT NOT NULL DEFAULT 'GB',
    "registrationNumber" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameLower" TEXT NOT NULL,
    "type" "CompanyType" NOT NULL,
    "sector" "Sector" NOT NULL,
    "status" "CompanyStatus" NOT NULL DEFAULT 'ACTIVE',
    "vatStatus" "VatStatus" NOT NULL DEFAULT 'UNKNOWN',
    "incorporatedAt" TIMESTAMP(3),
    "scoreValue" INTEGER NOT NULL,
    "previousScoreValue" INTEGER,
    "scoreChangedAt" TIMESTAMP(3),
    "scoreLastAssessedAt" TIMESTAMP(3),
    "creditLimitValue" DECIMAL(14,2),
    "creditLimitCurrency" TEXT,
    "employeesNumber" INTEGER,
    "website" TEXT,
    "address" JSONB,
    "companyNoticesCount" INTEGER NOT NULL DEFAULT 0,
    "companyNoticesValue" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "directorsNoticesCount" INTEGER NOT NULL DEFAULT 0,
    "directorsNoticesValue" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "noticesCurrency" TEXT NOT NULL DEFAULT 'GBP',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "company_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "profile" (
    "id" UUID NOT NULL,
    "legacyEntityBusinessId" SERIAL NOT NULL,
    "legacyFundingSearchId" INTEGER,
    "environment" "Environment" NOT NULL DEFAULT 'demo',
    "countryCode" TEXT NOT NULL DEFAULT 'GB',
    "ownerApiKeyId" UUID,
    "ownerAccountId" UUID,
    "tenantId" UUID,
    "companyInformation" JSONB NOT NULL DEFAULT '{}',
    "financials" JSONB NOT NULL DEFAULT '{}',
    "eligibilityRequest" JSONB NOT NULL DEFAULT '{}',
    "registrationNumber" TEXT,
    "companyType" "CompanyType",
    "sector" "Sector",
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "profile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "person" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "type" TEXT,
    "title" TEXT,
    "name" TEXT,
    "address" JSONB,
    "dateOfBirth" TIMESTAMP(3),
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "person_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "property" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "type" TEXT,
    "location" TEXT,
    "setting" TEXT,
    "classification" TEXT,
    "address" JSONB,
    "valueValue" DECIMAL(14,2),
    "valueCurrency" TEXT,
    "outstandingDebtValue" DECIMAL(14,2),
    "outstandingDebtCurrency" TEXT,
    "depositAvailableValue" DECIMAL(14,2),
    "depositAvailableCurrency" TEXT,
    "additionalDetails" TEXT,

    CONSTRAINT "property_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "asset" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT,
    "type" TEXT,
    "offeredAsGuarantee" BOOLEAN,
    "existingAgreement" BOOLEAN,
    "netCostValue" DECIMAL(14,2),
    "netCostCurrency" TEXT,
    "depositAvailableValue" DECIMAL(14,2),
    "depositAvailableCurrency" TEXT,

    CONSTRAINT "asset_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "asset_security" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "type" TEXT,
    "owner" TEXT,
    "address" JSONB,
    "valueValue" DECIMAL(14,2),
    "valueCurrency" TEXT,
    "totalDebtValue" DECIMAL(14,2),
    "totalDebtCurrency" TEXT,

    CONSTRAINT "asset_security_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "merchant_cash_advance" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "type" TEXT,
    "averageMonthlyTransactions" DOUBLE PRECISION,
    "terminalId" TEXT,
    "monthsOnBusinessLease" INTEGER,

    CONSTRAINT "merchant_cash_advance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trade_reference" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "companyName" TEXT,
    "contactName" TEXT,
    "contactNumber" TEXT,
    "contactEmail" TEXT,

    CONSTRAINT "trade_reference_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "questionnaire_answer_set" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "questionnaireId" TEXT NOT NULL,
    "answers" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "questionnaire_answer_set_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lender" (
    "id" SERIAL NOT NULL,
    "environment" "Environment" NOT NULL DEFAULT 'demo',
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "logo" TEXT,
    "icon" TEXT,
    "description" TEXT,
    "responseTimeHours" INTEGER NOT NULL DEFAULT 48,
    "requiredDocuments" TEXT[],
    "priceBand" "PriceBand" NOT NULL DEFAULT 'AVERAGE',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "applicationUrl" TEXT NOT NULL,
    "updateUrl" TEXT,
    "webhookSecret" TEXT,
    "authorizationToken" TEXT,
    "clientId" TEXT,
    "clientSecretHash" TEXT,
    "username" TEXT,
    "passwordHash" TEXT,
    "requiredFields" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "lender_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lender_product" (
    "id" SERIAL NOT NULL,
    "lenderId" INTEGER NOT NULL,
    "productType" "ProductType" NOT NULL,
    "name" TEXT NOT NULL,
    "minAmount" DECIMAL(14,2) NOT NULL,
    "maxAmount" DECIMAL(14,2) NOT NULL,
    "minTermMonths" INTEGER NOT NULL,
    "maxTermMonths" INTEGER NOT NULL,
    "minTradingMonths" INTEGER NOT NULL DEFAULT 0,
    "minAnnualRevenue" DECIMAL(14,2) NOT NULL DEFAULT 0,
    "minGrade" TEXT NOT NULL DEFAULT 'E',
    "excludedSectors" "Sector"[],
    "requiredSectors" "Sector"[],
    "companyTypes" "CompanyType"[],
    "countries" TEXT[],
    "currencies" TEXT[],
    "requirements" JSONB NOT NULL DEFAULT '{}',
    "arrangementFeePct" DECIMAL(6,3) NOT NULL DEFAULT 0,
    "earlyRepaymentFeePct" DECIMAL(6,3) NOT NULL DEFAULT 0,
    "exitFeePct" DECIMAL(6,3) NOT NULL DEFAULT 0,
    "annualRateMin" DECIMAL(6,3) NOT NULL,
    "annualRateMax" DECIMAL(6,3) NOT NULL,
    "likelihoodBase" DECIMAL(4,3) NOT NULL DEFAULT 0.5,
    "instantOffer" BOOLEAN NOT NULL DEFAULT false,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "lender_product_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "funding_search" (
    "id" SERIAL NOT NULL,
    "profileId" UUID NOT NULL,
    "amount" DECIMAL(14,2) NOT NULL,
    "currency" TEXT NOT NULL DEFAULT 'GBP',
    "periodMonths" INTEGER,
    "useOfFunds" TEXT,
    "urgency" TEXT,
    "status" INTEGER NOT NULL DEFAULT 1,
    "statusLabel" TEXT NOT NULL DEFAULT 'Open',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "funding_search_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "funding_match" (
    "id" SERIAL NOT NULL,
    "fundingSearchId" INTEGER NOT NULL,
    "lenderId" INTEGER NOT NULL,
    "productId" INTEGER NOT NULL,
    "productType" "ProductType" NOT NULL,
    "productTypes" "ProductType"[],
    "likelihood" DECIMAL(4,3) NOT NULL,
    "status" INTEGER NOT NULL DEFAULT 1,
    "statusReason" TEXT,
    "statusComment" TEXT,
    "reasons" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "funding_match_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_selection" (
    "id" UUID NOT NULL,
    "profileId" UUID NOT NULL,
    "fundingSearchId" INTEGER NOT NULL,
    "selection" JSONB NOT NULL,
    "contentHash" TEXT NOT NULL,
    "idempotencyKey" TEXT,
    "state" "ReviewState" NOT NULL DEFAULT 'PENDING_REVIEW',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "review_selection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "case" (
    "id" UUID NOT NULL,
    "businessId" SERIAL NOT NULL,
    "profileId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "product" TEXT NOT NULL,
    "productName" TEXT NOT NULL,
    "caseState" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "stateType" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "private" BOOLEAN NOT NULL DEFAULT false,
    "stateUpdatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "case_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "case_state_change" (
    "id" UUID NOT NULL,
    "caseId" UUID NOT NULL,
    "fromState" TEXT,
    "toState" TEXT NOT NULL,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "case_state_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "business_application" (
    "id" UUID NOT NULL,
    "tenantId" UUID,
    "accountId" UUID,
    "environment" "Environment" NOT NULL DEFAULT 'demo',
    "profileId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "answers" JSONB NOT NULL DEFAULT '{}',
    "clickId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "business_application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lender_application" (
    "id" SERIAL NOT NULL,
    "lenderId" INTEGER NOT NULL,
    "profileId" UUID NOT NULL,
    "fundingMatchId" INTEGER,
    "businessApplicationId" UUID,
    "reference" TEXT,
    "status" TEXT NOT NULL,
    "responseReason" TEXT,
    "comment" TEXT,
    "acceptedAt" TIMESTAMP(3),
    "invalidatedAt" TIMESTAMP(3),
    "payload" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "lender_application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "application_status_change" (
    "id" UUID NOT NULL,
    "lenderApplicationId" INTEGER NOT NULL,
    "fromStatus" TEXT,
    "toStatus" TEXT NOT NULL,
    "reason" TEXT,
    "comment" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "application_status_change_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offer" (
    "id" UUID NOT NULL,
    "lenderApplicationId" INTEGER,
    "businessApplicationId" UUID,
    "lenderId" INTEGER,
    "reference" TEXT NOT NULL,
    "status" "OfferStatus" NOT NULL,
    "type" "OfferType" NOT NULL DEFAULT 'MANUAL_OFFER',
    "productType" "ProductType" NOT NULL,
    "product" JSONB NOT NULL,
    "expiryDate" TIMESTAMP(3),
    "comment" TEXT,
    "securityRequired" TEXT[],
    "applicationUrl" TEXT,
    "supersededAt" TIMESTAMP(3),
    "decision" "OfferDecision",
    "decidedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "offer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "document" (
    "id" UUID NOT NULL,
    "profileId" UUID,
    "lenderApplicationId" INTEGER,
    "fileName" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "document_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery" (
    "id" UUID NOT NULL,
    "lenderApplicationId" INTEGER NOT NULL,
    "lenderId" INTEGER NOT NULL,
    "event" "WebhookEvent" NOT NULL,
    "url" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "DeliveryStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "nextAttemptAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_record" (
    "id" UUID NOT NULL,
    "accountId" UUID,
    "key" TEXT NOT NULL,
    "requestHash" TEXT NOT NULL,
    "responseStatus" INTEGER NOT NULL,
    "responseBody" JSONB NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_record_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "platform_user_email_key" ON "platform_user"("email");

-- CreateIndex
CREATE INDEX "platform_user_accountId_idx" ON "platform_user"("accountId");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_keyPrefix_key" ON "api_key"("keyPrefix");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_keyHash_key" ON "api_key"("keyHash");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_accountId_name_key" ON "api_key"("accountId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "refresh_token_tokenHash_key" ON "refresh_token"("tokenHash");

-- CreateIndex
CREATE INDEX "refresh_token_familyId_idx" ON "refresh_token"("familyId");

-- CreateIndex
CREATE INDEX "tenant_environment_createdDateTime_idx" ON "tenant"("environment", "createdDateTime");

-- CreateIndex
CREATE UNIQUE INDEX "tenant_accountId_referenceId_key" ON "tenant"("accountId", "referenceId");

-- CreateIndex
CREATE INDEX "company_registrationNumber_idx" ON "company"("registrationNumber");

-- CreateIndex
CREATE INDEX "company_sector_idx" ON "company"("sector");

-- CreateIndex
CREATE UNIQUE INDEX "company_countryCode_registrationNumber_key" ON "company"("countryCode", "registrationNumber");

-- CreateIndex
CREATE UNIQUE INDEX "profile_legacyEntityBusinessId_key" ON "profile"("legacyEntityBusinessId");

-- CreateIndex
CREATE UNIQUE INDEX "profile_tenantId_key" ON "profile"("tenantId");

-- CreateIndex
CREATE INDEX "profile_ownerAccountId_idx" ON "profile"("ownerAccountId");

-- CreateIndex
CREATE INDEX "profile_registrationNumber_idx" ON "profile"("registrationNumber");

-- CreateIndex
CREATE INDEX "person_profileId_idx" ON "person"("profileId");

-- CreateIndex
CREATE INDEX "property_profileId_idx" ON "property"("profileId");

-- CreateIndex
CREATE INDEX "asset_profileId_idx" ON "asset"("profileId");

-- CreateIndex
CREATE INDEX "asset_security_profileId_idx" ON "asset_security"("profileId");

-- CreateIndex
CREATE INDEX "merchant_cash_advance_profileId_idx" ON "merchant_cash_advance"("profileId");

-- CreateIndex
CREATE INDEX "trade_reference_profileId_idx" ON "trade_reference"("profileId");

-- CreateIndex
CREATE UNIQUE INDEX "questionnaire_answer_set_profileId_questionnaireId_key" ON "questionnaire_answer_set"("profileId", "questionnaireId");

-- CreateIndex
CREATE UNIQUE INDEX "lender_clientId_key" ON "lender"("clientId");

-- CreateIndex
CREATE UNIQUE INDEX "lender_username_key" ON "lender"("username");

-- CreateIndex
CREATE UNIQUE INDEX "lender_environment_slug_key" ON "lender"("environment", "slug");

-- CreateIndex
CREATE UNIQUE INDEX "lender_product_lenderId_productType_key" ON "lender_product"("lenderId", "productType");

-- CreateIndex
CREATE INDEX "funding_search_profileId_idx" ON "funding_search"("profileId");

-- CreateIndex
CREATE INDEX "funding_match_lenderId_idx" ON "funding_match"("lenderId");

-- CreateIndex
CREATE UNIQUE INDEX "funding_match_fundingSearchId_productId_key" ON "funding_match"("fundingSearchId", "productId");

-- CreateIndex
CREATE UNIQUE INDEX "review_selection_profileId_contentHash_key" ON "review_selection"("profileId", "contentHash");

-- CreateIndex
CREATE UNIQUE INDEX "case_businessId_key" ON "case"("businessId");

-- CreateIndex
CREATE INDEX "case_profileId_idx" ON "case"("profileId");

-- CreateIndex
CREATE INDEX "case_state_change_caseId_idx" ON "case_state_change"("caseId");

-- CreateIndex
CREATE INDEX "business_application_profileId_idx" ON "business_application"("profileId");

-- CreateIndex
CREATE INDEX "business_application_tenantId_idx" ON "business_application"("tenantId");

-- CreateIndex
CREATE INDEX "lender_application_lenderId_createdAt_idx" ON "lender_application"("lenderId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "lender_application_lenderId_reference_key" ON "lender_application"("lenderId", "reference");

-- CreateIndex
CREATE INDEX "application_status_change_lenderApplicationId_idx" ON "application_status_change"("lenderApplicationId");

-- CreateIndex
CREATE INDEX "offer_businessApplicationId_idx" ON "offer"("businessApplicationId");

-- CreateIndex
CREATE INDEX "offer_lenderApplicationId_supersededAt_idx" ON "offer"("lenderApplicationId", "supersededAt");

-- CreateIndex
CREATE UNIQUE INDEX "offer_lenderApplicationId_reference_key" ON "offer"("lenderApplicationId", "reference");

-- CreateIndex
CREATE INDEX "document_profileId_idx" ON "document"("profileId");

-- CreateIndex
CREATE INDEX "document_lenderApplicationId_idx" ON "document"("lenderApplicationId");

-- CreateIndex
CREATE INDEX "webhook_delivery_status_nextAttemptAt_idx" ON "webhook_delivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_record_accountId_key_key" ON "idempotency_record"("accountId", "key");

-- AddForeignKey
ALTER TABLE "platform_user" ADD CONSTRAINT "platform_user_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key" ADD CONSTRAINT "api_key_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_token" ADD CONSTRAINT "refresh_token_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "api_key"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_token" ADD CONSTRAINT "refresh_token_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refresh_token" ADD CONSTRAINT "refresh_token_userId_fkey" FOREIGN KEY ("userId") REFERENCES "platform_user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tenant" ADD CONSTRAINT "tenant_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "profile" ADD CONSTRAINT "profile_ownerApiKeyId_fkey" FOREIGN KEY ("ownerApiKeyId") REFERENCES "api_key"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "profile" ADD CONSTRAINT "profile_ownerAccountId_fkey" FOREIGN KEY ("ownerAccountId") REFERENCES "account"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "profile" ADD CONSTRAINT "profile_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "person" ADD CONSTRAINT "person_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "property" ADD CONSTRAINT "property_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "asset" ADD CONSTRAINT "asset_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "asset_security" ADD CONSTRAINT "asset_security_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "merchant_cash_advance" ADD CONSTRAINT "merchant_cash_advance_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "trade_reference" ADD CONSTRAINT "trade_reference_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "questionnaire_answer_set" ADD CONSTRAINT "questionnaire_answer_set_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lender_product" ADD CONSTRAINT "lender_product_lenderId_fkey" FOREIGN KEY ("lenderId") REFERENCES "lender"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "funding_search" ADD CONSTRAINT "funding_search_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "funding_match" ADD CONSTRAINT "funding_match_fundingSearchId_fkey" FOREIGN KEY ("fundingSearchId") REFERENCES "funding_search"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "funding_match" ADD CONSTRAINT "funding_match_lenderId_fkey" FOREIGN KEY ("lenderId") REFERENCES "lender"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "funding_match" ADD CONSTRAINT "funding_match_productId_fkey" FOREIGN KEY ("productId") REFERENCES "lender_product"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_selection" ADD CONSTRAINT "review_selection_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_selection" ADD CONSTRAINT "review_selection_fundingSearchId_fkey" FOREIGN KEY ("fundingSearchId") REFERENCES "funding_search"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "case" ADD CONSTRAINT "case_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "case_state_change" ADD CONSTRAINT "case_state_change_caseId_fkey" FOREIGN KEY ("caseId") REFERENCES "case"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "business_application" ADD CONSTRAINT "business_application_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "business_application" ADD CONSTRAINT "business_application_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "business_application" ADD CONSTRAINT "business_application_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lender_application" ADD CONSTRAINT "lender_application_lenderId_fkey" FOREIGN KEY ("lenderId") REFERENCES "lender"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lender_application" ADD CONSTRAINT "lender_application_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lender_application" ADD CONSTRAINT "lender_application_fundingMatchId_fkey" FOREIGN KEY ("fundingMatchId") REFERENCES "funding_match"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lender_application" ADD CONSTRAINT "lender_application_businessApplicationId_fkey" FOREIGN KEY ("businessApplicationId") REFERENCES "business_application"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "application_status_change" ADD CONSTRAINT "application_status_change_lenderApplicationId_fkey" FOREIGN KEY ("lenderApplicationId") REFERENCES "lender_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offer" ADD CONSTRAINT "offer_lenderApplicationId_fkey" FOREIGN KEY ("lenderApplicationId") REFERENCES "lender_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offer" ADD CONSTRAINT "offer_businessApplicationId_fkey" FOREIGN KEY ("businessApplicationId") REFERENCES "business_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "offer" ADD CONSTRAINT "offer_lenderId_fkey" FOREIGN KEY ("lenderId") REFERENCES "lender"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document" ADD CONSTRAINT "document_profileId_fkey" FOREIGN KEY ("profileId") REFERENCES "profile"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "document" ADD CONSTRAINT "document_lenderApplicationId_fkey" FOREIGN KEY ("lenderApplicationId") REFERENCES "lender_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_lenderApplicationId_fkey" FOREIGN KEY ("lenderApplicationId") REFERENCES "lender_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_lenderId_fkey" FOREIGN KEY ("lenderId") REFERENCES "lender"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- Hand-written additions (not expressible in schema.prisma) ---------------------------------

-- Tenant referenceId is unique per account, and while a tenant has no account (accountId NULL) the
-- composite unique index above does not bite (NULLs are distinct), so refuse duplicates here.
CREATE UNIQUE INDEX "tenant_reference_id_no_account_key" ON "tenant"("referenceId") WHERE "accountId" IS NULL;

-- Idempotency keys without an account are unique on their own, for the same reason.
CREATE UNIQUE INDEX "idempotency_record_key_no_account_key" ON "idempotency_record"("key") WHERE "accountId" IS NULL;

-- Company search by name prefix uses an index (no table scan, no pg_trgm):
--   WHERE "countryCode" = $1 AND "nameLower" LIKE $2 || '%'   (nameLower = lower(name))
CREATE INDEX "company_country_name_lower_prefix_idx" ON "company"("countryCode", "nameLower" text_pattern_ops);
-- Company search by registration number prefix.
CREATE INDEX "company_registration_number_prefix_idx" ON "company"("registrationNumber" text_pattern_ops);
