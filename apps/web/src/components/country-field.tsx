import { Autocomplete, TextField } from '@mui/material';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** The ISO 3166-1 alpha-2 codes of every country and territory (249). */
export const ISO_COUNTRIES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS ' +
  'BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE ' +
  'EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM ' +
  'HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC ' +
  'LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA ' +
  'NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO ' +
  'TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

/** A country's name in the interface language (`BE` → `Belgium`, `Belgique`); the code if unknown. */
export function countryName(code: string | undefined, lng: string): string {
  if (!code) return '';
  try {
    return new Intl.DisplayNames([lng], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A country picker (issue 29: a typed "Netherlands" was cut to "NE", Niger): the countries by
 * their name in the interface language (Intl.DisplayNames), searchable by name or code, giving
 * the ISO 3166-1 alpha-2 code.
 */
export function CountryField({
  value,
  onChange,
  label,
  error,
  helperText,
  required,
  disabled,
}: {
  value: string;
  onChange: (code: string) => void;
  label: string;
  error?: boolean;
  helperText?: string | undefined;
  required?: boolean;
  disabled?: boolean;
}) {
  const { i18n } = useTranslation();
  const names = useMemo(() => {
    const display = new Intl.DisplayNames([i18n.language], { type: 'region' });
    const collator = new Intl.Collator(i18n.language);
    const list = ISO_COUNTRIES.map((code) => ({ code, name: display.of(code) ?? code }));
    return list.sort((a, b) => collator.compare(a.name, b.name));
  }, [i18n.language]);
  const selected = names.find((c) => c.code === value.toUpperCase()) ?? null;
  return (
    <Autocomplete
      options={names}
      value={selected}
      onChange={(_e, c) => onChange(c?.code ?? '')}
      getOptionLabel={(c) => c.name}
      isOptionEqualToValue={(a, b) => a.code === b.code}
      filterOptions={(options, { inputValue }) => {
        const q = inputValue.trim().toLowerCase();
        return q
          ? options.filter((c) => c.name.toLowerCase().includes(q) || c.code.toLowerCase() === q)
          : options;
      }}
      disabled={disabled}
      renderInput={(params) => (
        <TextField {...params} label={label} required={required} error={error} helperText={helperText} />
      )}
      sx={{ minWidth: 220 }}
    />
  );
}
