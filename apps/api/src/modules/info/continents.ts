import type { RegionCode } from '@streamcloud/contract';

/** ISO 3166-1 alpha-2 country codes by continent (the spec's region codes). */
const COUNTRIES_BY_REGION: Record<RegionCode, string> = {
  EU: 'AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM UA VA XK',
  NA: 'AG AI AW BB BL BM BQ BS BZ CA CR CU CW DM DO GD GL GP GT HN HT JM KN KY LC MF MQ MS MX NI PA PM PR SV SX TC TT US VC VG VI',
  SA: 'AR BO BR CL CO EC FK GF GY PE PY SR UY VE',
  AS: 'AE AF AM AZ BD BH BN BT CC CN CX GE HK ID IL IN IO IQ IR JO JP KG KH KP KR KW KZ LA LB LK MM MN MO MV MY NP OM PH PK PS QA SA SG SY TH TJ TL TM TR TW UZ VN YE',
  AF: 'AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ML MR MU MW MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW',
  AN: 'AQ BV GS HM TF',
  OC: 'AS AU CK FJ FM GU KI MH MP NC NF NR NU NZ PF PG PN PW SB TK TO TV UM VU WF WS',
};

const REGION_OF_COUNTRY = new Map<string, RegionCode>(
  Object.entries(COUNTRIES_BY_REGION).flatMap(([region, countries]) =>
    countries.split(' ').map((country) => [country, region as RegionCode] as const),
  ),
);

export function regionOfCountry(countryCode: string): RegionCode | null {
  return REGION_OF_COUNTRY.get(countryCode.toUpperCase()) ?? null;
}
