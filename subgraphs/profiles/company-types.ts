/** GraphQL types of the company registry and the credit report (spec 2.1, 2.5), as REST shows them. */
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Currency amount (spec 2.1)' })
export class Money {
  @Field(() => String, { description: 'GBP, EUR or ZAR' })
  code!: string;

  @Field(() => Float)
  value!: number;
}

@ObjectType({ description: 'Address (spec 2.1)' })
export class Address {
  @Field(() => String, { nullable: true }) simpleValue?: string;
  @Field(() => String, { nullable: true }) street?: string;
  @Field(() => String, { nullable: true }) houseNumber?: string;
  @Field(() => String, { nullable: true }) city?: string;
  @Field(() => String, { nullable: true }) province?: string;
  @Field(() => String, { nullable: true }) postalCode?: string;
}

@ObjectType()
export class PreviousScore {
  @Field(() => String)
  grade!: string;
}

@ObjectType({ description: 'CompanyScore (spec 2.1): grade bands F 2-15 … A 91-100, G dissolved' })
export class CompanyScore {
  @Field(() => String)
  grade!: string;

  @Field(() => Int, { nullable: true, description: '0-100 (absent from the credit report)' })
  value?: number;

  @Field(() => String, { nullable: true })
  industryAverageGrade!: string | null;

  @Field(() => String, { nullable: true })
  changedAt!: string | null;

  @Field(() => String, { nullable: true })
  lastAssessedAt!: string | null;

  @Field(() => PreviousScore, { nullable: true })
  previous!: PreviousScore | null;
}

@ObjectType()
export class LegalNoticeCount {
  @Field(() => Int)
  last12MonthsCount!: number;

  @Field(() => Money)
  last12MonthsValue!: Money;
}

@ObjectType({ description: 'Legal notices of the last 12 months, against the company and its directors' })
export class LegalNotices {
  @Field(() => LegalNoticeCount)
  company!: LegalNoticeCount;

  @Field(() => LegalNoticeCount)
  directors!: LegalNoticeCount;
}

@ObjectType({ description: 'A company of the registry as CompanyInformation (spec 2.1)' })
export class Company {
  @Field(() => String) name!: string;
  @Field(() => String) type!: string;
  @Field(() => String) registrationNumber!: string;
  @Field(() => String, { nullable: true }) incorporatedAt?: string | null;
  @Field(() => String) sector!: string;
  @Field(() => String, { nullable: true }) vatStatus?: string;
  @Field(() => CompanyScore) score!: CompanyScore;
  @Field(() => Money, { nullable: true }) creditLimit!: Money | null;
  @Field(() => Address, { nullable: true }) contactAddress?: Address | null;
  @Field(() => Int, { nullable: true }) employeesNumber?: number | null;
  @Field(() => String, { nullable: true }) website?: string | null;
  @Field(() => LegalNotices) legalNotices!: LegalNotices;
}

@ObjectType({ description: 'A company search hit (spec 2.3)' })
export class CompanySearchHit {
  @Field(() => String) name!: string;
  @Field(() => String) number!: string;
}

@ObjectType({ description: 'The credit report of a tenant (spec 2.5: its data object)' })
export class CreditReport {
  @Field(() => Company) companyInformation!: Company;
  @Field(() => ID) id!: string;
  @Field(() => String) createdAt!: string;
  @Field(() => String) updatedAt!: string;
}
