/**
 * The company-data sources a deployment configured (COMPANY_DATA_SOURCES, parsed in
 * kernel/config.ts), built once at start and handed to the registry in that order.
 */
import type { AppConfig } from '../../kernel/config.js';
import type { Logger } from '../../infra/logger.js';
import type { CompanyDataSource } from './company-registry.js';
import { companiesHouseApi } from './companies-house/companies-house-api.js';

type SourceConfig = Pick<
  AppConfig,
  'COMPANY_DATA_SOURCES' | 'COMPANIES_HOUSE_API_KEY' | 'COMPANIES_HOUSE_API_URL' | 'COMPANIES_HOUSE_TIMEOUT_MS' | 'COMPANIES_HOUSE_MAX_WAIT_MS'
>;

export function companyDataSources(config: SourceConfig, logger: Logger): CompanyDataSource[] {
  return config.COMPANY_DATA_SOURCES.map((name) => {
    switch (name) {
      case 'companies-house-api':
        return companiesHouseApi({
          baseUrl: config.COMPANIES_HOUSE_API_URL,
          // loadConfig refuses companies-house-api without a key.
          apiKey: config.COMPANIES_HOUSE_API_KEY!,
          timeoutMs: config.COMPANIES_HOUSE_TIMEOUT_MS,
          maxWaitMs: config.COMPANIES_HOUSE_MAX_WAIT_MS,
          logger: logger.child({ source: name }),
        });
    }
  });
}
