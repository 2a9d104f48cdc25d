import filetypeCsvIcon from 'bootstrap-icons/icons/filetype-csv.svg?raw';
import printerIcon from 'bootstrap-icons/icons/printer.svg?raw';
import searchIcon from 'bootstrap-icons/icons/search.svg?raw';
import Button from 'react-bootstrap/Button';
import { Icon } from '@/components/ui/icon';

export interface ReportActionsProps {
  onSearch: () => void;
  searchDisabled?: boolean;
  /** Export CSV, or null while there is no report to export (Print waits for one too). */
  onExport: (() => void) | null;
}

/** A billing report's Search, Print and Export CSV buttons. */
export function ReportActions({ onSearch, searchDisabled = false, onExport }: ReportActionsProps) {
  return (
    <>
      <Button onClick={onSearch} disabled={searchDisabled}>
        <Icon svg={searchIcon} className="me-1" />
        Search
      </Button>
      <Button variant="outline-secondary" onClick={() => window.print()} disabled={!onExport}>
        <Icon svg={printerIcon} className="me-1" />
        Print
      </Button>
      <Button variant="outline-secondary" disabled={!onExport} onClick={() => onExport?.()}>
        <Icon svg={filetypeCsvIcon} className="me-1" />
        Export CSV
      </Button>
    </>
  );
}
